"""`rvlab report --html`: the page opened in a real headless browser (Debian's chromium, driven
by Selenium through Debian's chromedriver): every chart rendered, nothing loaded from outside
the page, the table filters and sorts; a screenshot of it is saved in build/report/."""
import shutil

import pytest

from conftest import ROOT, rvlab
from rvlab.build import BUILD
from rvlab.records import load_records

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")
SCREENSHOT = BUILD / "report" / "index.png"
# the charts the committed results must give: seed 000 Tables 1-2, seed 003 Fig. 29-31 and 35,
# seed 004 Table 6, the bigint figures, cycles per byte and `rvlab area`'s chart
CHARTS = ["seed000-table1.png", "seed000-table2.png", "seed003-fig29-block-ciphers.png",
          "seed003-fig30-hashes.png", "seed004-table6.png",
          "bigint-mul-e31-mul5.png", "bigint-add-e31-mul5.png", "bench-cycles-per-byte.png", "area-speedup.png", "area-speedup-custom.png"]


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """The page made from a copy of the committed results (bench.json, area.json, area.md)."""
    out = tmp_path_factory.mktemp("html")
    for name in ("bench.json", "area.json", "area.md"):
        shutil.copy(ROOT / "results" / name, out)
    p = rvlab("report", "--json", out / "bench.json", "--html", timeout=900)
    assert p.returncode == 0 and "index.html" in p.stdout, p.stdout + p.stderr
    assert "warning" not in p.stderr, p.stderr
    return out / "index.html"


@pytest.fixture(scope="module")
def browser():
    # make test installs them (scripts/setup.sh): a test that cannot run fails rather than skips
    assert CHROMIUM and CHROMEDRIVER, "chromium / chromedriver missing: run `make setup`"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--disable-default-apps", "--disable-extensions", "--no-first-run", "--no-default-browser-check",
              "--metrics-recording-only", "--window-size=1300,1600"):
        opts.add_argument(a)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(120)
    yield driver
    driver.quit()


def _visible_rows(browser):
    return browser.execute_script(
        "return Array.from(document.querySelectorAll('#results tbody tr'))"
        ".filter(r => r.style.display !== 'none').map(r => Array.from(r.cells).map(c => c.dataset.v));")


def test_every_chart_renders_and_nothing_comes_from_outside(page, browser):
    browser.get(page.as_uri())
    images = browser.execute_script("return Array.from(document.images).map(i => "
                                    "[i.dataset.name, i.complete, i.naturalWidth, i.src.slice(0, 22)])")
    names = [name for name, *_ in images]
    assert set(CHARTS) <= set(names), set(CHARTS) - set(names)
    for name, complete, width, src in images:
        assert complete and width > 300, name                      # decoded and drawn
        assert src == "data:image/png;base64,", name                # embedded, not fetched
    assert browser.execute_script("return document.querySelectorAll('script[src], link[href], iframe').length") == 0
    resources = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert all(r.startswith("data:") for r in resources), resources
    # the seed tables are there as tables
    headings = browser.execute_script("return Array.from(document.querySelectorAll('h2, h3')).map(h => h.textContent)")
    for h in ("Seed 000 Table 1", "Seed 000 Table 2", "Seed 003", "Seed 004 Table 6"):
        assert h in headings, h
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOT))
    assert SCREENSHOT.stat().st_size > 10000
    print(f"screenshot: {SCREENSHOT}")


def test_the_table_filters_and_sorts(page, browser):
    from selenium.webdriver.common.by import By
    browser.get(page.as_uri())
    records = load_records(page.with_name("bench.json"))
    assert len(_visible_rows(browser)) == len(records)
    box = browser.find_element(By.ID, "filter")
    box.send_keys("chacha20 zbkb")
    rows = _visible_rows(browser)
    want = [r for r in records if r.primitive == "chacha20" and "zbkb" in (r.impl + r.isa)]
    assert rows and len(rows) == len(want) and all(r[0] == "chacha20" and "zbkb" in r[2] for r in rows)
    assert browser.find_element(By.ID, "count").text == f"{len(want)} of {len(records)} rows"
    cycles = browser.find_element(By.XPATH, "//table[@id='results']//th[text()='cycles']")
    col = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "#results th")].index("cycles")
    cycles.click()
    got = [int(r[col]) for r in _visible_rows(browser)]
    assert got == sorted(r.cycles for r in want)
    cycles.click()
    assert [int(r[col]) for r in _visible_rows(browser)] == sorted((r.cycles for r in want), reverse=True)
    box.clear()
    box.send_keys("no-such-thing")
    assert _visible_rows(browser) == [] and browser.find_element(By.ID, "count").text.startswith("0 of")
