import { useState } from "react";

/** A new token's secret, shown once: the API never returns it again. */
export function SecretOnce(props: { name: string; secret: string; onDismiss(): void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="banner info secret" role="status">
      <p>
        Token <strong>{props.name}</strong> created. Copy its secret now: it will not be shown again.
      </p>
      <label className="secret-value">
        Secret of {props.name}
        <input readOnly value={props.secret} onFocus={(e) => e.target.select()} />
      </label>
      <div className="form-actions">
        <button
          type="button"
          className="secondary"
          onClick={() => void navigator.clipboard?.writeText(props.secret).then(() => setCopied(true))}
        >
          {copied ? "Copied" : "Copy secret"}
        </button>
        <button type="button" className="secondary" onClick={props.onDismiss}>
          I have copied it
        </button>
      </div>
    </div>
  );
}
