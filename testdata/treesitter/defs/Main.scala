package app

trait Store {
  def get(key: String): String
//    ^ chain: trait Store > method Store.get
}

class Server(port: Int) {
  def start(): Boolean = {
    port > 0
//  ^ chain: class Server > method Server.start
//  ^ describe: def Server.start
  }
}

object Main {
  def main(args: Array[String]): Unit = {
    println("hi")
//  ^ chain: object Main > method Main.main
  }
}
