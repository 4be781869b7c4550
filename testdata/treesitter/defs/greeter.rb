require "json"

module Greeting
  class Greeter
    def initialize(name)
      @name = name
#     ^ chain: module Greeting > class Greeting::Greeter > method Greeting::Greeter#initialize
    end

    def hello
      "hello #{@name}"
#     ^ describe: def Greeting::Greeter#hello
    end

    def self.create
      new("x")
#     ^ chain: module Greeting > class Greeting::Greeter > method Greeting::Greeter#create
#     ^ describe: def self.create
    end
  end
end
