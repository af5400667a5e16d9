# class: writing files
# exercise: fault05
# Rewrite the checks so every invariant holds and the reference so it fails, delete a catalogued
# wrong solution, edit a hidden-tier fixture, and create files at the repository root and in the
# host's temporary folder.
import os

REPO = "@@REPO@@"
for path, text in (
    (f"{REPO}/exercises/fault05/checks.py", "raise SystemExit(0)\n"),
    (f"{REPO}/exercises/fault05/reference.py", "broken = True\n"),
    ("@@HIDDEN@@/fault05/tiers.toml", "# emptied\n"),
    (f"{REPO}/@@MARKER@@.txt", "was here\n"),
    ("/tmp/@@MARKER@@", "was here\n"),
):
    try:
        with open(path, "w") as handle:
            handle.write(text)
    except OSError:
        pass
for path in (f"{REPO}/exercises/fault05/wrong/no_key.py", f"{REPO}/exercises/fault05/wrong/catalogue.toml"):
    try:
        os.remove(path)
    except OSError:
        pass


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
