//go:build k8s_1_34 || k8s_1_36 || k8s_1_37

package main

import v1 "k8s.io/api/core/v1"

// preEnqueue runs the profile's PreEnqueue plugins in order, as the scheduling queue does
// before a pod may be popped (runPreEnqueuePlugins): the first non-success keeps the pod out
// of the active queue. It returns that status' message.
func (e *engine) preEnqueue(pod *v1.Pod) (string, bool) {
	for _, pl := range e.fw.PreEnqueuePlugins() {
		if st := pl.PreEnqueue(e.ctx, pod); !st.IsSuccess() {
			return st.Message(), true
		}
	}
	return "", false
}
