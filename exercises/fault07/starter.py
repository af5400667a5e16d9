def fenced_write(highest, key, value, token):
    """Decide whether the store applies a write of `value` to `key`, made under `token`.

    token.value is the lease's fencing number (it grows with every new grant); `highest` is a
    dict the store keeps for you between writes. Return True to apply the write, False to refuse.
    """
    return True
