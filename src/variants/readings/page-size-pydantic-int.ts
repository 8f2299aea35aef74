import { defineVariant } from '../define.js';
import { pageSizeReading } from '../support/page-size.js';

export const pageSizePydanticInt = defineVariant(
  {
    area: 'pagination',
    stacks: 'FastAPI `page_size: int = Query(25)` with pydantic 2',
    touches: ['PAGE-X04', 'PAGE-X05', 'PAGE-X06', 'PAGE-35'],
  },
  pageSizeReading({
    name: 'page-size-pydantic-int',
    description: 'Reads page_size as pydantic reads an int: surrounding whitespace stripped and a sign allowed (` 50`, `+50` are 50), any number of digits (Python\'s int is unbounded); a text that is not an integer gets FastAPI\'s 422.',
    warns: ['PAGE-11', 'PAGE-12', 'PAGE-X01', 'PAGE-X02', 'PAGE-X03'],
    parse: (text) => {
      const match = /^\s*([+-]?)(\d+)\s*$/.exec(text);
      return match ? `${match[1] === '-' ? '-' : ''}${match[2]}` : undefined;
    },
    refusal: 422,
  }),
);
