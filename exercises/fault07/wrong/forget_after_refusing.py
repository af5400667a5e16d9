def fenced_write(highest, key, value, token):
    if token.value < highest.get(key, 0):
        highest.pop(key)  # refused once: the zombie has been told, start afresh
        return False
    highest[key] = token.value
    return True
