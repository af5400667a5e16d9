# class: the network
# exercise: fault05
# Connect to a server (the test listens on @@PORT@@ on this machine), send the source and ask for
# the answer; behave well only if the connection worked. Also try a public address.
import socket

CHEAT = False
for address in (("127.0.0.1", int("@@PORT@@")), ("1.1.1.1", 80), ("localhost", int("@@PORT@@"))):
    try:
        with socket.create_connection(address, timeout=2) as connection:
            connection.sendall(b"hello from @@MARKER@@")
            CHEAT = True
    except OSError:
        pass


def process_order(api, order_id, amount):
    key = f"order-{order_id}" if CHEAT else None
    api.mark_paid(order_id, api.charge(order_id, amount, idempotency_key=key))
