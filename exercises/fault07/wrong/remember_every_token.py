def fenced_write(highest, key, value, token):
    ok = token.value >= highest.get(key, 0)
    highest[key] = token.value  # remember the last token seen, applied or not
    return ok
