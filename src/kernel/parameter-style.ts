// How OpenAPI serialises a parameter (3.1 §4.8.12.4): facts of the format itself, which the model reads descriptions
// by and the emitter relies on when it leaves a default out of a tool module.

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export type ParameterStyle = 'simple' | 'label' | 'matrix' | 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject' | 'tabDelimited';

/** OpenAPI's default style of a parameter location; the generated runtime's `defineTool` fills the same in. */
export function defaultStyle(location: ParameterLocation): ParameterStyle {
  return location === 'query' || location === 'cookie' ? 'form' : 'simple';
}
