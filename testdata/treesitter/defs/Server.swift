import Foundation

protocol Store {
    func get(_ key: String) -> String
//       ^ chain: protocol Store > method Store.get
}

struct Point {
    var x: Int
//      ^ chain: struct Point
}

class Server {
    var port: Int

    init(port: Int) {
        self.port = port
//      ^ chain: class Server > constructor Server.init
    }

    func start() -> Bool {
        return port > 0
//      ^ chain: class Server > method Server.start
//      ^ describe: func Server.start
    }
}

extension Server {
    func stop() {}
//       ^ chain: extension Server > method Server.stop
}
