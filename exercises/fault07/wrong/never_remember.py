def fenced_write(highest, key, value, token):
    return token.value >= highest.get(key, 0)
