# Correct, written apart from the reference: the store keeps every token it accepted per key, and
# a write goes through only if its token is at least the largest of them.
def fenced_write(highest, key, value, token):
    accepted = highest.setdefault(key, [])
    if accepted and token.value < max(accepted):
        return False
    accepted.append(token.value)
    return True
