using System;

namespace App.Net
{
    public class Server
    {
        public Server(int port) { Port = port; }
//                                ^ chain: namespace App.Net > class App.Net.Server > constructor App.Net.Server.Server

        public int Port { get; set; }

        public void Start()
        {
            Console.WriteLine("start");
//          ^ chain: namespace App.Net > class App.Net.Server > method App.Net.Server.Start
//          ^ describe: public void App.Net.Server.Start
        }
    }

    public interface IStore
    {
        string Get(string key);
//             ^ chain: namespace App.Net > interface App.Net.IStore > method App.Net.IStore.Get
    }

    public struct Point { public int X; }
//                        ^ chain: namespace App.Net > struct App.Net.Point
}
