# class: huge output
# exercise: fault05
# 100 MB written straight to file descriptors 1 and 2, past Python's sys.stdout.
import os

chunk = b"z" * 65536
for _ in range(800):
    for fd in (1, 2):
        try:
            os.write(fd, chunk)
        except OSError:
            pass


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
