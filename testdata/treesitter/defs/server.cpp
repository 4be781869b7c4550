#include <string>

namespace net {

class Server {
 public:
  void start() {
    running_ = true;
//  ^ chain: namespace net > class net::Server > method net::Server::start
  }
  bool running_ = false;
};

int helper(int x) { return x; }
//                  ^ chain: namespace net > function net::helper

}  // namespace net

void net::Server::stop() {
  running_ = false;
//^ chain: function net::Server::stop
//^ describe: void net::Server::stop
}
