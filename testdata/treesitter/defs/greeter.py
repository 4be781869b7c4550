"""Greeter module."""
import functools


class Greeter:
    """Says hello."""

    def __init__(self, name):
        self.name = name
#       ^ chain: class Greeter > method Greeter.__init__

    def hello(self):
        return "hello " + self.name
#              ^ chain: class Greeter > method Greeter.hello
#              ^ describe: def Greeter.hello
#              ^ sig: def hello(self):

    class Inner:
        def deep(self):
            pass
#           ^ chain: class Greeter > class Greeter.Inner > method Greeter.Inner.deep


@functools.cache
def helper(x):
    def inner():
        return x
#       ^ chain: function helper > function inner
#       ^ describe: def inner
    return inner
#   ^ describe: def helper


async def fetch(url):
    return url
#   ^ describe: async def fetch

CONSTANT = 1
# ^ chain: -
