import type { ReactNode } from "react";

/** A table with a header row naming its columns; it scrolls sideways on narrow screens. */
export function DataTable(props: { columns: string[]; className?: string; children: ReactNode }) {
  return (
    <div className="table-scroll">
      <table className={props.className}>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

/** A row with one cell across `columns` columns: a row's edit form, or what an empty table says. */
export function WideRow(props: { columns: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={props.columns}>{props.children}</td>
    </tr>
  );
}
