const http = require("http");

class Server {
  start(port) {
    return http.createServer().listen(port);
//         ^ chain: class Server > method Server.start
//         ^ describe: method Server.start
  }
}

function helper(x) {
  return x + 1;
//       ^ chain: function helper
}

const handlers = {
  ping: function () {
    return "pong";
//         ^ chain: method ping
  },
};

const double = (n) => n * 2;
//                    ^ chain: function double
