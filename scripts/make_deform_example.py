#!/usr/bin/env python3
"""Writes the deformer's example animation (issue 15): the armadillo twisted at
the waist by two-bone linear blend skinning, the way a rig without volume
correction does it, so the waist collapses (the "candy wrapper") and
`tetlab deform` has something to put back.

    python3 scripts/make_deform_example.py          # -> assets/anim/armadillo_twist/frame_0000.obj ...

Bone 0 (legs) stays; bone 1 (torso and head) turns about the vertical axis
through the body's centre by up to 150 degrees. A vertex's weight on bone 1
rises smoothly over the waist, y in [Y0, Y1]; its position is the blend of the
two bones' transforms, (1 - w) p + w R p, whose length shrinks by
cos(theta / 2) where w = 1/2: the collapse a skinned twist is known for.
The mesh is assets/meshes/armadillo_4k_surface.obj (MIT, see
assets/meshes/LICENSES.md); the frames keep its vertex order and faces.
"""
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "assets", "meshes", "armadillo_4k_surface.obj")
OUT = os.path.join(ROOT, "assets", "anim", "armadillo_twist")
FRAMES = 24            # frame 0 is the rest pose
MAX_TWIST_DEG = 150.0
Y0, Y1 = 0.15, 0.75    # the waist, in the mesh's units (it spans y = -1.08 .. 1.95)


def smoothstep(a, b, y):
    t = min(max((y - a) / (b - a), 0.0), 1.0)
    return t * t * (3.0 - 2.0 * t)


def main():
    verts, faces = [], []
    with open(SOURCE) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "v":
                verts.append(tuple(float(c) for c in parts[1:4]))
            elif parts[0] == "f":
                faces.append(tuple(int(c.split("/")[0]) for c in parts[1:]))
    cx = sum(v[0] for v in verts) / len(verts)
    cz = sum(v[2] for v in verts) / len(verts)
    os.makedirs(OUT, exist_ok=True)
    for frame in range(FRAMES):
        theta = math.radians(MAX_TWIST_DEG) * frame / (FRAMES - 1)
        c, s = math.cos(theta), math.sin(theta)
        path = os.path.join(OUT, "frame_%04d.obj" % frame)
        with open(path, "w") as out:
            out.write("# armadillo_4k_surface.obj twisted %.1f degrees at the waist by linear blend skinning\n"
                      % math.degrees(theta))
            out.write("# made by scripts/make_deform_example.py; mesh: MIT, see assets/meshes/LICENSES.md\n")
            for x, y, z in verts:
                w = smoothstep(Y0, Y1, y)
                dx, dz = x - cx, z - cz
                rx, rz = cx + c * dx + s * dz, cz - s * dx + c * dz
                out.write("v %.6f %.6f %.6f\n" % ((1 - w) * x + w * rx, y, (1 - w) * z + w * rz))
            for face in faces:
                out.write("f %s\n" % " ".join(str(i) for i in face))
    print("wrote %d frames to %s" % (FRAMES, OUT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
