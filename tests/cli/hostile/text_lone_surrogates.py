# class: breaking the report's text
# exercise: fault05
# A message with lone surrogates: UTF-8 cannot write them, so the text report raises as it
# prints, and grade-all's CSV writer raises on this row, losing every row after the header.
def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
    raise ValueError("order \ud800\udfff\udc80 failed: \ud83d")
