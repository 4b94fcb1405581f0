"""The MuJoCo world for Verticality (DESIGN.md §7): pieces at real size, settles, poses."""

from vertex.physics.geometry import Pose, tilt_deg, yaw_pose
from vertex.physics.pieces import KINDS, PYRAMIDS, SIZES, Kind
from vertex.physics.world import CAP_S, TIMESTEP, Keyframes, Settle, build_model, settle

__all__ = [
    "CAP_S",
    "KINDS",
    "PYRAMIDS",
    "SIZES",
    "TIMESTEP",
    "Keyframes",
    "Kind",
    "Pose",
    "Settle",
    "build_model",
    "settle",
    "tilt_deg",
    "yaw_pose",
]
