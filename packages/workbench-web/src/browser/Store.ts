/** The page's state in one place: views read it, change it, and hear of changes. */
export class Store<State> {
  private readonly listeners = new Set<(state: State) => void>()

  constructor(private state: State) {}

  get(): State {
    return this.state
  }

  /** Changes the state and tells every listener. */
  update(change: (state: State) => State): void {
    this.state = change(this.state)
    for (const listener of this.listeners) listener(this.state)
  }

  /** Listens until the returned function is called. */
  subscribe(listener: (state: State) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
