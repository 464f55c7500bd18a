import type { ReactNode } from "react";

type TableProps = {
  /** The header row, one cell a column. */
  columns: ReactNode[];
  className?: string;
  caption?: ReactNode;
  children: ReactNode;
};

/** A table whose header row names its columns; the rows are its children. */
export function Table(props: TableProps) {
  return (
    <table className={props.className}>
      {props.caption}
      <thead>
        <tr>
          {props.columns.map((column, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional and fixed
            <th key={i} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{props.children}</tbody>
    </table>
  );
}

/** A `Table` that scrolls sideways on narrow screens. */
export function DataTable(props: TableProps) {
  return (
    <div className="table-scroll">
      <Table {...props} />
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
