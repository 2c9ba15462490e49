const PAGE_ARGUMENTS =
  /^(page|per_page|page_size|pagesize|limit|offset|cursor|after|before|starting_after|ending_before|page_token|pagetoken|next_token|continuation_token|marker|start|count|skip|top|max_results|maxresults|pagenumber|page_number|next|from|size)$/i;

/** Arguments that only page through results (`page`, `per_page`, `cursor` …). */
export function isPagingArgument(key: string): boolean {
  return PAGE_ARGUMENTS.test(key);
}
