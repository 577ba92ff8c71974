# Thin wrapper: each target calls scripts/ or the rvlab command.
PY ?= python3
RVLAB = $(PY) -m rvlab

.PHONY: setup build test bench report clean
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

bench: setup
	$(RVLAB) bench
	$(RVLAB) report
	@cat results/bench.md

report:
	$(RVLAB) report

clean:
	rm -rf build
