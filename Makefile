# Thin wrapper: each target calls scripts/ or the rvlab command.
# scripts/setup.sh installs rvlab into a virtual environment .venv of this checkout (always: never
# into a shared interpreter): its bin/ comes first on PATH here, so PY (python3), rvlab and rvsim
# are this checkout's once it exists -- also when `setup` creates it in this very run.
export PATH := $(CURDIR)/.venv/bin:$(PATH)
PY ?= python3
RVLAB = $(PY) -m rvlab
# implementations at a time in every rvlab build/test/bench (make test JOBS=1): RVLAB_JOBS is
# their -j default; empty: every core
JOBS ?= $(RVLAB_JOBS)
export RVLAB_JOBS := $(JOBS)

.PHONY: setup build test bench report area rtl clean
setup:
	sh scripts/setup.sh

build: setup
	$(RVLAB) build

# cargo tests of the simulator, then the pytest suites (which run `rvlab test` on every implementation)
# (both always run; the target fails if either failed)
test: setup
	@status=0; \
	(cd sim && cargo test --release --quiet) || status=1; \
	$(PY) -m pytest -q tests || status=1; \
	exit $$status

# every implementation on the e31 model and on the ideal 1-CPI core (seed 003's model, where the
# seed-003 goals are); the bigint records again with a 2-cycle multiplier (merged into bench.json
# beside the default latency-5 records) so the report can show how the picture changes
bench: setup
	$(RVLAB) bench
	$(RVLAB) bench --core ideal
	$(RVLAB) bench --filter '^bigint-' --mul-latency 2
	$(RVLAB) area
	$(RVLAB) report --html
	@cat results/bench.md
	@echo "the same as one page: results/index.html"

# gates: the instruction units and the baseline core through Yosys (results/area.md)
area: setup
	$(RVLAB) area

report:
	$(RVLAB) report --html

# every program on the 5-stage Verilog core and on rvsim's model of it, cycle for cycle, and
# 200 random programs
# (make test runs a sample: tests/test_hw_rv5.py)
rtl: setup
	$(RVLAB) rtl --random 200 --seed 1000 --random-len 1000 --random-iters 200

clean:
	rm -rf build
