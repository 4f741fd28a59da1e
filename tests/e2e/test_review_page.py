"""The review page in a real browser: Debian's Chromium, headless, driven by Selenium through
the system's `chromedriver` (`scripts/test` installs both where it can).

A real `castlegraph serve` with a token holds two pending review links; the test opens
`/review`, gives the token, decides a pair with the keyboard, undoes it, and checks each step
through the API. A hostile name must show as text. Screenshots of the queue and of a pair are
saved in `tests/artifacts/review/` (git-ignored) for a person to look at.
"""

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from tests.support.processes import Service

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None or CHROMEDRIVER is None,
        reason="no chromium and chromedriver on PATH: scripts/test installs them with apt-get "
        "when run as root (apt-get install chromium chromium-driver)",
    ),
]
webdriver = pytest.importorskip("selenium.webdriver")

from selenium.common.exceptions import (  # noqa: E402
    NoAlertPresentException,
    StaleElementReferenceException,
)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

SECRET = "curator-secret"
HOSTILE = "<img src=x onerror=alert(1)>"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "review"
WAIT_SECONDS = 30.0


class Api:
    """The service's API with the curator's token, to seed and to check what the page did."""

    def __init__(self, url: str) -> None:
        self.client = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {SECRET}"})

    def call(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self.client.request(method, path, **kwargs)
        assert response.is_success, response.text
        return response.json()

    def mention(self, content: str, name: str, kind: str) -> dict[str, Any]:
        drawer = self.call("POST", "/api/wings/work/rooms/notes/drawers", json={"content": content})
        mention = {"drawer": drawer["drawer"]["id"], "name": name, "kind": kind}
        [result] = self.call("POST", "/api/mentions", json={"mentions": [mention]})["results"]
        entity: dict[str, Any] = result["entity"]
        return entity

    def drawer(self, content: str, vector: list[float]) -> str:
        """A drawer in work/notes with its embedding."""
        drawer = self.call("POST", "/api/wings/work/rooms/notes/drawers", json={"content": content})
        drawer_id: str = drawer["drawer"]["id"]
        self.call("PUT", f"/api/drawers/{drawer_id}/embedding", json={"vector": vector})
        return drawer_id

    def links(self, status: str) -> list[tuple[str, str]]:
        page = self.call("GET", "/api/review-links", params={"status": status})
        return [(link["a"]["name"], link["b"]["name"]) for link in page["links"]]


@pytest.fixture
def service(spawn: Callable[..., Service], data_dir: Path) -> Service:
    started = spawn(data_dir, env={"CASTLEGRAPH_API_TOKENS": SECRET})
    started.wait_healthy()
    return started


@pytest.fixture
def api(service: Service) -> Iterator[Api]:
    client = Api(service.url)
    yield client
    client.client.close()


@pytest.fixture
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(argument)  # no sandbox: the tests may run as root (CI, containers)
    options.add_argument("--window-size=1280,1000")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(
        service=webdriver.ChromeService(executable_path=CHROMEDRIVER), options=options
    )
    yield driver
    driver.quit()


def wait_for(driver: Any, check: Callable[[Any], Any], what: str) -> Any:
    return WebDriverWait(driver, WAIT_SECONDS).until(check, message=what)


def text_of(driver: Any, element_id: str) -> str:
    text: str = driver.find_element(By.ID, element_id).text
    return text


def open_with_token(driver: Any, url: str) -> None:
    """Open the page, which asks for the token, and give it."""
    driver.get(f"{url}/review")
    wait_for(driver, lambda d: d.find_element(By.ID, "token").is_displayed(), "token form")
    driver.find_element(By.ID, "token").send_keys(SECRET + "\n")


def marked(driver: Any, selector: str = "mark") -> set[str]:
    """The texts the page highlights (`<mark>`), or none while it redraws them."""
    try:
        return {mark.text for mark in driver.find_elements(By.CSS_SELECTOR, selector)}
    except StaleElementReferenceException:
        return set()


def press(driver: Any, key: str) -> None:
    """A key as a person types it: to the focused element, bubbling up to the document."""
    webdriver.ActionChains(driver).send_keys(key).perform()


def screenshot(driver: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    assert driver.save_screenshot(str(path)), path
    print(f"screenshot: {path}")  # shown with pytest -s or on failure


def no_alert(driver: Any) -> bool:
    try:
        driver.switch_to.alert  # noqa: B018  # raises when no alert is open
    except NoAlertPresentException:
        return True
    return False


def test_a_curator_decides_a_pair_with_the_keyboard_and_undoes_it(
    service: Service, api: Api, browser: Any
) -> None:
    maria = api.mention("Maria Lopez chaired the budget meeting.", "Maria Lopez", "person")
    api.mention("Minutes: Mario Lopez presented the plan.", "Mario Lopez", "person")
    api.mention(f"The tool {HOSTILE} was mentioned first.", HOSTILE, "tool")
    api.mention("Then <img src=x onerror=alert(2)> came.", "<img src=x onerror=alert(2)>", "tool")
    assert ("Maria Lopez", "Mario Lopez") in api.links("pending")
    assert len(api.links("pending")) == 2

    open_with_token(browser, service.url)
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#queue li")) == 2, "queue")
    queue = browser.find_elements(By.CSS_SELECTOR, "#queue button.link")
    assert browser.execute_script("return sessionStorage.length") == 1  # kept for the tab

    # The hostile pair (the most similar) is shown as text: no element made of it, no alert.
    titles = [item.text for item in queue]
    assert any(HOSTILE in title for title in titles), titles
    hostile_index = next(i for i, title in enumerate(titles) if HOSTILE in title)
    if hostile_index != 0:
        press(browser, "j")
    wait_for(browser, lambda d: HOSTILE in text_of(d, "pair-title"), "the hostile pair shown")
    wait_for(browser, lambda d: HOSTILE in marked(d), "the hostile name highlighted")
    assert browser.find_elements(By.TAG_NAME, "img") == []
    assert no_alert(browser)

    # To the Maria/Mario pair, with the mentioned text highlighted in each drawer.
    press(browser, "k" if hostile_index != 0 else "j")
    wait_for(browser, lambda d: "Mario Lopez" in text_of(d, "pair-title"), "the Lopez pair")
    both = {"Maria Lopez", "Mario Lopez"}
    wait_for(browser, lambda d: marked(d, "#sides mark") >= both, "both names highlighted")
    assert marked(browser, "#sides mark") == both
    focused = browser.switch_to.active_element
    assert focused.get_attribute("aria-current") == "true"  # the selection holds the focus
    assert focused.value_of_css_property("outline-style") != "none"  # and shows it
    screenshot(browser, "pair")

    press(browser, "s")
    wait_for(browser, lambda d: "is now an alias" in text_of(d, "status"), "the same verdict")
    assert "Mario Lopez" in api.call("GET", f"/api/entities/{maria['id']}")["aliases"]
    assert api.links("same") == [("Maria Lopez", "Mario Lopez")]
    assert ("Maria Lopez", "Mario Lopez") not in api.links("pending")

    press(browser, "u")
    wait_for(browser, lambda d: "Undone" in text_of(d, "status"), "the undo")
    assert "Mario Lopez" not in api.call("GET", f"/api/entities/{maria['id']}")["aliases"]
    assert api.links("same") == []
    assert api.links("different") == [("Maria Lopez", "Mario Lopez")]
    assert "same undone" in text_of(browser, "queue")
    screenshot(browser, "queue")

    # At 200 % zoom (half the CSS pixels across) the page reflows: nothing to scroll sideways,
    # every decision still on screen.
    browser.set_window_size(640, 1000)
    wait_for(browser, lambda d: d.execute_script("return window.innerWidth") <= 640, "resize")
    overflow = "return document.documentElement.scrollWidth - window.innerWidth"
    assert browser.execute_script(overflow) <= 0
    for button in ("same", "different", "skip", "undo"):
        assert browser.find_element(By.ID, button).is_displayed()
    screenshot(browser, "queue-narrow")

    logs = [entry["message"] for entry in browser.get_log("browser")]
    assert not [m for m in logs if "Content Security Policy" in m or "Uncaught" in m], logs


def test_a_curator_judges_a_duplicate_pair_with_the_differences_marked(
    service: Service, api: Api, browser: Any
) -> None:
    first = api.drawer("The release ships on Friday after review by the quality team.", [1, 0, 0])
    second = api.drawer(
        "The release ships on Monday after review by the security team.", [1, 0.1, 0]
    )
    api.drawer("Lunch is at noon.", [0, 0, 1])
    [cluster] = api.call("GET", "/api/duplicates", params={"wing": "work", "room": "notes"})[
        "clusters"
    ]
    pair = cluster["pairs"][0]
    assert {pair["a"], pair["b"]} == {first, second}
    words = {first: {"Friday", "quality"}, second: {"Monday", "security"}}

    open_with_token(browser, service.url)
    wait_for(browser, lambda d: d.find_element(By.ID, "queue-end").text, "the links queue")
    browser.find_element(By.ID, "mode-dups").click()
    browser.find_element(By.ID, "wing").send_keys("work")
    browser.find_element(By.ID, "room").send_keys("notes\n")  # submits the scope
    # The sides can be drawn more than once while the scope's search settles (seen under load
    # on two workers): wait for the marks the pair should carry, not for the first drawn.
    wait_for(
        browser,
        lambda d: (
            marked(d, "#dup-sides del") == words[pair["a"]]
            and marked(d, "#dup-sides ins") == words[pair["b"]]
        ),
        "the differences marked",
    )
    assert marked(browser, "#dup-sides del") == words[pair["a"]]  # struck in the first
    assert marked(browser, "#dup-sides ins") == words[pair["b"]]  # underlined in the second
    assert "Cluster 1 of 1" in text_of(browser, "dup-pair-title")
    screenshot(browser, "duplicates")

    browser.find_element(By.CSS_SELECTOR, "#dup-queue button.link").click()  # focus the queue
    press(browser, "s")
    wait_for(browser, lambda d: "Recorded: supplement" in text_of(d, "status"), "the verdict")
    scope = {"wing": "work", "room": "notes"}
    assert api.call("GET", "/api/duplicates", params=scope)["clusters"] == []
    assert "supplement" in text_of(browser, "dup-queue")

    press(browser, "u")
    wait_for(browser, lambda d: "cannot be withdrawn" in text_of(d, "status"), "no undo")
    assert api.call("GET", "/api/duplicates", params=scope)["clusters"] == []


def test_the_browser_refuses_a_script_written_into_the_page(service: Service, browser: Any) -> None:
    """The Content-Security-Policy at work: had a value reached the page as HTML, a script in
    it would not run (no `'unsafe-inline'`)."""
    browser.get(f"{service.url}/review")
    wait_for(browser, lambda d: d.find_element(By.ID, "token").is_displayed(), "token form")
    inject = (
        "const script = document.createElement('script');"
        "script.textContent = 'window.injected = true';"
        "document.head.append(script);"
        "return window.injected === undefined;"
    )
    assert browser.execute_script(inject) is True
    logs = [entry["message"] for entry in browser.get_log("browser")]
    assert any("Content Security Policy" in message for message in logs), logs
