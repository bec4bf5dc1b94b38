# SPDX-License-Identifier: LGPL-2.1-or-later
"""Named checks for the test scripts: each prints ok/FAIL, counted for the summary."""
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + str(detail) if detail and not ok else ''}")
    passed += bool(ok)
    failed += not ok


def summary():
    """Prints the counts; the exit status for them."""
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0
