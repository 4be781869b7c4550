<?php

namespace App\Http;
// ^ chain: namespace App\Http

interface Store
{
    public function get(string $key): string;
//                  ^ chain: interface Store > method Store::get
}

class Server
{
    public function start(): void
    {
        echo "start";
//      ^ chain: class Server > method Server::start
//      ^ describe: public function Server::start
    }
}

function helper($x)
{
    return $x + 1;
//  ^ chain: function helper
}
