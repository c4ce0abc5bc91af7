import { Parser } from 'acorn';
import jsx from 'acorn-jsx';

/** acorn with JSX, as MDX reads JavaScript; extending a parser builds a class, so it is built once. */
export const JsParser = Parser.extend(jsx());
