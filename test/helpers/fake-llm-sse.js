/**
 * Streamed replies (server-sent events) for a request that asks `stream: true`, as Claude Code
 * (Anthropic Messages) and Codex (OpenAI Responses) always do. Each stream is derived from the
 * complete JSON body the server would send otherwise (fake-llm-wire.js `successBody`), so a
 * reply has one source whichever way it leaves. Text and tool arguments go as one delta each.
 */

function frame(event, data) {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** message_start · per block start/delta/stop · message_delta (stop reason, usage) · message_stop */
function anthropicStream(message) {
  const { content, stop_reason, stop_sequence, usage, ...head } = message;
  const frames = [
    frame('message_start', {
      type: 'message_start',
      message: {
        ...head,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 0 },
      },
    }),
  ];
  content.forEach((block, index) => {
    if (block.type === 'tool_use') {
      frames.push(
        frame('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
        frame('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: {
            type: 'input_json_delta',
            partial_json: typeof block.input === 'string' ? block.input : JSON.stringify(block.input),
          },
        }),
      );
    } else {
      frames.push(
        frame('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'text', text: '' },
        }),
        frame('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text: block.text },
        }),
      );
    }
    frames.push(frame('content_block_stop', { type: 'content_block_stop', index }));
  });
  frames.push(
    frame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason, stop_sequence },
      usage: { output_tokens: usage.output_tokens },
    }),
    frame('message_stop', { type: 'message_stop' }),
  );
  return frames.join('');
}

/** response.created · per output item added/(text delta)/done · response.completed */
function responsesStream(response) {
  let sequence = 0;
  const next = (event, data) => frame(event, { type: event, sequence_number: sequence++, ...data });
  const frames = [next('response.created', { response: { ...response, status: 'in_progress', output: [] } })];
  response.output.forEach((item, outputIndex) => {
    const opened = item.type === 'message' ? { ...item, status: 'in_progress', content: [] } : item;
    frames.push(next('response.output_item.added', { output_index: outputIndex, item: opened }));
    if (item.type === 'message') {
      const text = item.content[0]?.text ?? '';
      frames.push(
        next('response.output_text.delta', {
          item_id: item.id,
          output_index: outputIndex,
          content_index: 0,
          delta: text,
        }),
        next('response.output_text.done', {
          item_id: item.id,
          output_index: outputIndex,
          content_index: 0,
          text,
        }),
      );
    }
    frames.push(next('response.output_item.done', { output_index: outputIndex, item }));
  });
  frames.push(next('response.completed', { response }));
  return frames.join('');
}

const STREAMS = { anthropic: anthropicStream, 'openai-responses': responsesStream };

/** The event stream of a complete JSON reply body, or undefined when `api` has no stream here. */
export function streamOf(api, bodyText) {
  const stream = STREAMS[api];
  return stream === undefined ? undefined : stream(JSON.parse(bodyText));
}
