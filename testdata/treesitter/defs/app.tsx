import React from "react";

interface Props {
  name: string;
//^ chain: interface Props
}

export function Greeting({ name }: Props) {
  return <div className="greeting">Hello, {name}</div>;
//        ^ chain: function Greeting
}

export class Panel extends React.Component<Props> {
  render() {
    return <section>{this.props.name}</section>;
//          ^ chain: class Panel > method Panel.render
  }
}

const Button = (props: Props) => <button>{props.name}</button>;
//    ^ chain: function Button
