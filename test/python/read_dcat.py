"""Parses the DCAT catalog (JSON-LD) with rdflib and prints its datasets, distributions and service as JSON.

Usage: /usr/bin/python3 read_dcat.py <catalog.jsonld> [<the address it is read from>]

With an address, relative IRIs resolve against it, as for a catalog fetched from there (JSON-LD 1.1: the
document's own address is the base IRI).
"""
import json
import sys

from rdflib import Graph, Namespace, RDF

DCAT = Namespace("http://www.w3.org/ns/dcat#")
DCT = Namespace("http://purl.org/dc/terms/")


def one(graph, subject, predicate):
    value = graph.value(subject, predicate)
    return None if value is None else str(value)


def main(path, address=None):
    graph = Graph()
    graph.parse(path, format="json-ld", base=address)
    catalogs = list(graph.subjects(RDF.type, DCAT.Catalog))
    datasets = []
    for ds in sorted(graph.subjects(RDF.type, DCAT.Dataset)):
        temporal = graph.value(ds, DCT.temporal)
        distributions = []
        for dist in sorted(graph.objects(ds, DCAT.distribution)):
            distributions.append({
                "types": sorted(str(t) for t in graph.objects(dist, RDF.type)),
                "downloadURL": one(graph, dist, DCAT.downloadURL),
                "accessURL": one(graph, dist, DCAT.accessURL),
                "mediaType": one(graph, dist, DCAT.mediaType),
                # DCT.format would be str.format: Namespace is a str.
                "format": one(graph, dist, DCT["format"]),
                "license": one(graph, dist, DCT.license),
            })
        datasets.append({
            "id": str(ds),
            "identifier": one(graph, ds, DCT.identifier),
            # Every language-tagged title: {"es": ..., "en": ...}.
            "title": {t.language: str(t) for t in graph.objects(ds, DCT.title)},
            "license": one(graph, ds, DCT.license),
            "publisher": one(graph, ds, DCT.publisher),
            "modified": one(graph, ds, DCT.modified),
            "start": None if temporal is None else one(graph, temporal, DCAT.startDate),
            "end": None if temporal is None else one(graph, temporal, DCAT.endDate),
            "keywords": sorted(str(k) for k in graph.objects(ds, DCAT.keyword)),
            "language": sorted(str(lang) for lang in graph.objects(ds, DCT.language)),
            "distributions": distributions,
        })
    services = []
    for svc in graph.subjects(RDF.type, DCAT.DataService):
        services.append({
            "endpointURL": one(graph, svc, DCAT.endpointURL),
            "endpointDescription": one(graph, svc, DCAT.endpointDescription),
            "servesDataset": sorted(str(d) for d in graph.objects(svc, DCAT.servesDataset)),
        })
    catalog = catalogs[0] if len(catalogs) == 1 else None
    print(json.dumps({
        "triples": len(graph),
        "catalogs": len(catalogs),
        "catalogDatasets": [] if catalog is None else sorted(str(d) for d in graph.objects(catalog, DCAT.dataset)),
        "catalogLicense": None if catalog is None else one(graph, catalog, DCT.license),
        "catalogPublisher": None if catalog is None else one(graph, catalog, DCT.publisher),
        "datasets": datasets,
        "services": services,
    }))


main(*sys.argv[1:3])
