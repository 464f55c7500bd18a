/** A flag's state in each of its environments, a badge each ("production: on"). */
export function EnvironmentStates(props: { environments: readonly { name: string; enabled: boolean }[] }) {
  return (
    <>
      {props.environments.map((env) => (
        <span key={env.name} className={env.enabled ? "badge on" : "badge off"}>
          {env.name}: {env.enabled ? "on" : "off"}
        </span>
      ))}
    </>
  );
}
