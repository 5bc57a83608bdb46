/** The page's state in one place: the views read it and change it. */
export class Store<State> {
  constructor(private state: State) {}

  get(): State {
    return this.state
  }

  /** Changes the state. */
  update(change: (state: State) => State): void {
    this.state = change(this.state)
  }
}
