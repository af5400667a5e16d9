# class: files that are not files
# exercise: fault05
# link: exercises/fault05/reference.py
# The submission is a symbolic link to the reference solution (or to a classmate's file): read
# through the link, the grader graded the reference as this student's code and gave it 10/10.
# (The test makes this path a link to the file named above; these lines are never graded.)
def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
