import { Request } from "./types";

export interface Store {
  get(key: string): string;
//^ chain: interface Store > method Store.get
}

export class Server {
  private port = 8080;

  constructor(private store: Store) {}

  async start(req: Request): Promise<void> {
    const handler = (x: number) => {
      return x * 2;
//           ^ chain: class Server > method Server.start > function handler
    };
    await this.listen(handler);
//        ^ chain: class Server > method Server.start
//        ^ describe: async Server.start
//        ^ sig: async start(req: Request): Promise<void> {
  }

  listen(h: (x: number) => number): void {}
}

export function helper(n: number): number {
  return n + 1;
//       ^ describe: export function helper
}

namespace App {
  export enum Color {
    Red,
//  ^ chain: namespace App > enum App.Color
  }
}

type Handler = (req: Request) => void;
//   ^ chain: type Handler
