def fenced_write(highest, key, value, token):
    # Refuse only what is older than the newest token this store has seen for the key: the same
    # holder writes several times with one token, and a newer holder's first write raises the bar.
    if token.value < highest.get(key, 0):
        return False
    highest[key] = token.value
    return True
