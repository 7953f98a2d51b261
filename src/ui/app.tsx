export function App() {
  return <main><h1>svc</h1></main>;
}
