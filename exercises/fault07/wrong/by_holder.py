def fenced_write(highest, key, value, token):
    # Only the holder that wrote first may write again.
    first = highest.setdefault(key, token.holder)
    return token.holder == first
