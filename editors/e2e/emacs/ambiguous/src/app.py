def greet(name):
    print("hello")
    return name


def part(name):
    print("hello")
    return name
