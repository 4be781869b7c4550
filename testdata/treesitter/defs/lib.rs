use std::fmt;

pub struct Server {
    port: u16,
//  ^ chain: struct Server
}

impl Server {
    pub fn start(&mut self) -> Result<(), String> {
        self.port += 1;
//      ^ chain: impl Server > method Server::start
//      ^ describe: pub fn Server::start
//      ^ sig: pub fn start(&mut self) -> Result<(), String> {
        Ok(())
    }
}

pub struct Wrapper<T>(T);

impl<T: fmt::Debug> fmt::Display for Wrapper<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{:?}", self.0)
//      ^ chain: impl Wrapper > method Wrapper::fmt
    }
}

trait Store {
    fn get(&self, key: &str) -> Option<String>;
//     ^ chain: trait Store > method Store::get
}

pub enum State {
    On,
//  ^ chain: enum State
}

mod tests {
    fn helper() {}
//     ^ chain: module tests > function tests::helper
}

macro_rules! square {
    ($x:expr) => { $x * $x };
//   ^ chain: macro square
}
