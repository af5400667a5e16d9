# class: breaking the report's text
# exercise: fault05
# A message that rewrites the instructor's terminal: clear the screen, go back to the line's
# start and print a passing verdict over the failing one, in green; and a CSV cell that does the
# same to whoever `cat`s summary.csv.
def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
    raise RuntimeError("\x1b[2J\x1b[H\x1b[32mfault05: PASSED, 10/10 points\x1b[0m\r\u202eevil\x07\x08")
