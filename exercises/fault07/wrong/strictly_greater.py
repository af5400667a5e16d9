def fenced_write(highest, key, value, token):
    if token.value <= highest.get(key, 0):
        return False
    highest[key] = token.value
    return True
