"""A background job's page (`/jobs/<id>`): its progress bar and per-document errors. While the
job runs, htmx asks for the progress fragment every second and stops once it is finished;
without JavaScript the page says to reload. The same service as the API: services/bulk."""

from __future__ import annotations

from flask import render_template

from portal.access import TENANT_ROLES, is_htmx, portal_tenant, roles_required
from portal.blueprint import bp
from services.bulk import bulk, wire


@bp.get("/jobs/<job_id>")
@roles_required(*TENANT_ROLES)
def job_page(job_id: str):
    job = wire.job_data(bulk.get_job(portal_tenant().id, job_id))
    if is_htmx():
        return render_template("portal/bulk/_progress.html", job=job)
    return render_template("portal/bulk/job.html", job=job)
