def a():
    pass

def b():
    # b comes second
    return 2

def c():
    pass
