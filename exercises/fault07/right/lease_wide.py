# Correct, written apart from the reference: one newest token for the whole store (every key is
# guarded by the same lease), kept with max().
def fenced_write(highest, key, value, token):
    newest = highest.get("newest", 0)
    if token.value < newest:
        return False
    highest["newest"] = max(newest, token.value)
    return True
