# class: escaping (processes that outlive the grade)
# exercise: fault05
# importlib.reload(subprocess) undoes any patched Popen; start a detached sleeper with it, and a
# shell that writes a marker file on the host once the grading is over.
import importlib
import subprocess

subprocess = importlib.reload(subprocess)
try:
    subprocess.Popen(["sh", "-c", "sleep 3600", "@@MARKER@@"], start_new_session=True)
    subprocess.Popen(["sh", "-c", "sleep 2; echo escaped > /tmp/@@MARKER@@-sh"], start_new_session=True)
except Exception:
    pass


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
