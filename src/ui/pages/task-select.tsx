/** The task chooser of an allocation's tools (its log, its terminal): one option per task. */
export function TaskSelect(props: { tasks: readonly string[]; value: string; testid: string; onChange: (task: string) => void }) {
  return (
    <label>
      Task{' '}
      <select value={props.value} data-testid={props.testid} onChange={(e) => props.onChange((e.target as HTMLSelectElement).value)}>
        {props.tasks.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
    </label>
  );
}
