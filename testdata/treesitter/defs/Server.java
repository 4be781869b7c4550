package app;

import java.util.List;

public class Server {
    private int port;

    public Server(int port) {
        this.port = port;
//      ^ chain: class Server > constructor Server.Server
    }

    @Override
    public String toString() {
        return "Server";
//      ^ chain: class Server > method Server.toString
//      ^ describe: public String Server.toString
//      ^ sig: public String toString() {
    }

    static class Inner {
        void run() {}
//           ^ chain: class Server > class Server.Inner > method Server.Inner.run
    }

    interface Store {
        String get(String key);
//             ^ chain: class Server > interface Server.Store > method Server.Store.get
    }

    enum State { ON, OFF }
//               ^ chain: class Server > enum Server.State
}

record Point(int x, int y) {}
//     ^ chain: class Point
