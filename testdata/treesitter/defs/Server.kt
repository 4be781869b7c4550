package app

class Server(val port: Int) {
    fun start(): Boolean {
        return port > 0
//      ^ chain: class Server > method Server.start
//      ^ describe: fun Server.start
    }

    companion object {
        fun create() = Server(80)
//          ^ chain: class Server > object > method create
    }
}

object Registry {
    val servers = mutableListOf<Server>()
//      ^ chain: object Registry
}

fun main() {
    println("hi")
//  ^ chain: function main
}
