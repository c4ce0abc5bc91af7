import type { SectionChunk } from '../../../../render/index.js';

/**
 * The text a section is embedded (and its vector cached) as: title, heading and body. One
 * function, so the vectors a version asks for and the ones pruning keeps are keyed alike.
 */
export function sectionEmbeddingText(chunk: Pick<SectionChunk, 'title' | 'section' | 'content'>): string {
  return `${chunk.title}\n${chunk.section}\n${chunk.content}`;
}
