def fenced_write(highest, key, value, token):
    refused = highest.setdefault("refused", set())
    if token.value < highest.get(key, 0) and token.value not in refused:
        refused.add(token.value)  # the zombie is told once; it will stop on its own
        return False
    highest[key] = max(highest.get(key, 0), token.value)
    return True
