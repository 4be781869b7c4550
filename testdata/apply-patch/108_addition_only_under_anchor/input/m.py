def a():
    pass

def b():
    return 2

def c():
    pass
