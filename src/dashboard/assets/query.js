// **query.js** sets up YASGUI (bundled from npm, no CDN) on the crawl's endpoint, with the crawl graph's vocabulary
// as example queries. The class and property autocompleters are off: they ask a remote service (LOV).
const endpoint = new URL('sparql', window.location.href).href;
document.getElementById('endpoint').textContent = endpoint;

const PREFIXES = `PREFIX rs: <https://w3id.org/rdfscout/ns#>
PREFIX http: <http://www.w3.org/2011/http#>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX prov: <http://www.w3.org/ns/prov#>
`;
const EXAMPLES = {
  classes: `SELECT ?class (COUNT(DISTINCT ?s) AS ?things) (COUNT(DISTINCT ?doc) AS ?documents)
WHERE { GRAPH ?doc { ?s a ?class } FILTER(?doc != <urn:rdfscout:crawl>) }
GROUP BY ?class ORDER BY DESC(?things) LIMIT 20`,
  docs: `SELECT ?doc (COUNT(*) AS ?triples) WHERE { GRAPH ?doc { ?s ?p ?o } FILTER(?doc != <urn:rdfscout:crawl>) }
GROUP BY ?doc ORDER BY DESC(?triples) LIMIT 20`,
  crawl: `${PREFIXES}SELECT ?doc ?status ?type ?depth WHERE { GRAPH <urn:rdfscout:crawl> { ?doc http:statusCodeValue ?status ; rs:detectedType ?type ; rs:depth ?depth } } LIMIT 50`,
  labels: `${PREFIXES}SELECT ?label (COUNT(*) AS ?n) WHERE { GRAPH <urn:rdfscout:crawl> { ?doc rs:predictedLabel ?label } }
GROUP BY ?label ORDER BY DESC(?n)`,
};

const yasgui = new window.Yasgui(document.getElementById('yasgui'), {
  requestConfig: { endpoint, method: 'POST' },
  copyEndpointOnNewTab: true,
  endpointCatalogueOptions: { getData: () => [{ endpoint }] },
  persistenceId: null,
  yasqe: { value: EXAMPLES.classes, autocompleters: ['prefixes', 'variables'] },
});
window.rdfscoutYasgui = yasgui;

for (const button of document.querySelectorAll('[data-example]')) {
  button.addEventListener('click', () => {
    const tab = yasgui.getTab();
    tab.setQuery(EXAMPLES[button.dataset.example]);
    tab.query();
  });
}
