/** The rows any index column can grow to: 2^27, far past what fits in the appliance's memory anyway. */
export const MAX_COLUMN_ROWS = 2 ** 27;

/** A typed-array constructor the index uses for a column. */
export type ColumnType<T> = { new (buffer: ArrayBuffer): T; readonly BYTES_PER_ELEMENT: number };

/** ES2024's resizable ArrayBuffer, missing from the ES2023 library this project compiles against. */
interface ResizableArrayBuffer extends ArrayBuffer {
  resize(byteLength: number): void;
}
const ResizableArrayBuffer = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ResizableArrayBuffer;

/**
 * A typed array of `rows` elements that `growColumn` can lengthen in place. Its buffer reserves
 * address space for MAX_COLUMN_ROWS up front and the kernel backs pages only as rows are
 * written, so growing copies nothing: doubling plain arrays copied every row at once, a
 * long stall of the event loop whenever a large index doubled.
 */
export function growableColumn<T extends ArrayBufferView>(type: ColumnType<T>, rows: number): T {
  return new type(new ResizableArrayBuffer(rows * type.BYTES_PER_ELEMENT, { maxByteLength: MAX_COLUMN_ROWS * type.BYTES_PER_ELEMENT }));
}

/** Lengthens a column made by growableColumn to `rows` elements; existing elements stay, new ones are 0. */
export function growColumn(column: ArrayBufferView, rows: number): void {
  if (rows > MAX_COLUMN_ROWS) throw new Error(`the feedback index cannot hold more than ${MAX_COLUMN_ROWS} entries per project`);
  (column.buffer as ResizableArrayBuffer).resize(rows * (column as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT);
}
